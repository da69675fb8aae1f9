// Placeholder until its own issue: prints its usage.
print("usage: replay-cli --help (not implemented yet)")
