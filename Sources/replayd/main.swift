// Placeholder until its own issue: prints its usage.
print("usage: replayd --help (not implemented yet)")
