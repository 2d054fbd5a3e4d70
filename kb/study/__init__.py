"""Study material made from the texts: cards, Anki decks, the mock exam."""
