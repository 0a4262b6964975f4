"""REST API of the tournament system: arbiter console, player tablets, public display (see ``urls``)."""
