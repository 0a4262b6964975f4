"""What every page shares: the home page and error pages (``home``), the arbiter's access and the
language of a page (``access``, ``language``), the Content-Security-Policy of every answer (``csp``)."""
