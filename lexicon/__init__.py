"""Lexicons: the compiled word graph (pure) and its Django part (model, commands, pages)."""
