"""Cops n Robbers Big Money Christmas: the game's own mechanics beside its game file."""
