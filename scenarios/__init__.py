"""Golden transcripts and dispute scenarios shipped with hauntcheck."""
