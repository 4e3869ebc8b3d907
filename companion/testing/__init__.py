"""Support for tests, benchmarks and stress harnesses; the device never imports it.

- `autoplay`: a stand-in player that drives the application through its inputs;
- `recording`: an I2C bus that records what luma's drivers send, and panels
  that decode it back into a framebuffer;
- `screen_examples`: one view of every screen, the source of the golden images;
- `goldens`: writes those golden images; `sample_sheet`: a contact sheet of
  fonts, patches and screens for judging them by eye.

It stays inside the package (rather than in tests/) because bench/ and
stress/ run it as well as the tests, against the installed package.
"""
