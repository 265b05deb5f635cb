"""hauntcheck's engine: the game-agnostic core (states, actions, chance, transcripts, replay)
and one module per game that plays it exactly by its spec."""
