#!/usr/bin/env python3
"""Prints its argv as context: proves no shell and no interpolation."""
import json, sys
json.load(sys.stdin)
print(json.dumps({"additionalContext": json.dumps(sys.argv[1:])}))
