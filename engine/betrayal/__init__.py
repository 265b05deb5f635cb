"""Betrayal at House on the Hill, 2nd edition."""
