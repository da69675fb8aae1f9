// Golden replay assertions arrive with the core issue.
