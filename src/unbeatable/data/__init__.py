"""Package data: the Connect Four opening book."""
