"""The HTTP API (FastAPI): routes, request schemas, error responses."""
