"""The device daemon: `patchwork-companion run`, started at boot by systemd."""
