"""The server's services: the only code that opens a database transaction."""
