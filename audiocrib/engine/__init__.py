"""The rules engine: cards, rules, scoring, actions, events, the game and the views. Pure: it imports nothing
of the project above it and no UI, speech, sound or network library."""
