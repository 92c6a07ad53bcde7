"""Reading and writing positions and moves: FEN, UCI and SAN (also Thai SAN)."""
