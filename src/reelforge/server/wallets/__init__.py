"""The operator's seamless wallet: the wire contract, the game server's client, a reference operator."""
