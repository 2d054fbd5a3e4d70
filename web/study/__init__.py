"""Study on the site: the /study page and its cards, the mock exam, the Anki packages."""
