"""A game's life: created, seated, moved, timed out, and what each new version owes. No Flask here.

See README.md beside this file for the rule this package keeps.
"""
