"""The application: screens and flows driven by five abstract inputs.

`companion.Companion` is the whole application; `play`, `circle` and
`widgets` are its screens. What a screen shows is a view (`companion.views`),
drawn elsewhere.
"""
