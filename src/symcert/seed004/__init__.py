"""Seed 004's bounded big-step interpreter: a second engine, on purpose a different formulation."""
