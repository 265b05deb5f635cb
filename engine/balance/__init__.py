"""Balance studies (``hauntcheck balance``): many seeded games per haunt and player count, who
wins and how long games last, as balance.json and a page of plots (docs/balance.md)."""
