"""Solving Alquerque under Bell's rules (issue 48; docs/solving.md): a df-pn solver on the
compiled kernel, a persistent proof database, a checker that walks proofs with the public
board alone, and the task split that ``kradan solve alquerque-bell`` runs on an executor."""
