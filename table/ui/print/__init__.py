"""Print-and-play sheets and card images, painted by the same painter as the table."""
