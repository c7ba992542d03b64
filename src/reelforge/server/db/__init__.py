"""The server's database: tables (SQLAlchemy Core), engines for SQLite and PostgreSQL, and the
Alembic migrations that create them (`reelforge db upgrade`)."""
