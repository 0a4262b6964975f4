"""The documentation's screenshots (``./hall screenshots``): a throw-away tournament of each language played through
the real pages in headless Chromium and photographed into ``docs/<language>/img/``."""
