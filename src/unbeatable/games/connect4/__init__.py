"""Connect Four: the game (bitboards, notation, evaluation)."""

from .game import Connect4, Connect4State, connect4

__all__ = ["Connect4", "Connect4State", "connect4"]
