"""Helpers the test modules share (no test module imports another): fakes, builders, drivers."""
