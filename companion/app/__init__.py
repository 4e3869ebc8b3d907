"""The application: screens and flows driven by five abstract inputs.

`companion.Companion` is the whole application; `views` is what it shows,
rendered elsewhere; `play`, `circle` and `widgets` are its screens.
"""
