"""The site in its players' languages: the locales offered, the catalogs of the site's strings and of the games' terms,
and the choice of a request's locale (issue 47). The engine stays English-free of wording: it describes moves as
messages (a template id with arguments) that this package renders in the reader's language."""
