"""One catalog per language, named by its code; see `companion.text.language`."""
