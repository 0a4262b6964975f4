"""The API's serializers, by audience: ``common``, ``arbiter``, ``tablet``, ``public``."""
