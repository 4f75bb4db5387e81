"""Fixtures every test directory may use: a throwaway PostgreSQL server and stores on it
(see ``support.postgres``)."""

pytest_plugins = [
    "support.postgres",  # postgres_server, fresh_postgres_url, store_url
    "support.stuck",  # a test stuck on an await fails with its tasks' stacks
]
