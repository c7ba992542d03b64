"""reelforge serve: the remote game server (FastAPI over SQLAlchemy 2; Alembic migrations).

Layout: `db/` (tables, engine, migrations), `services/` (the only code that opens a
transaction: sessions, ledger, rounds, choices, jackpot, audit), `wallets/` (the operator's
seamless wallet: client, outbox worker, and a reference operator wallet service), `api/`
(routes and request/response schemas). Money is integer minor units of the player's currency;
the games work in credits, converted with the game's denomination in `services.money`.
"""
