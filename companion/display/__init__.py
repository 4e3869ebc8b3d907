"""Display sinks: where rendered 128x64 one-bit images go."""
