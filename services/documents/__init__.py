"""Documents the office keeps or hands out: certificates of election, the case record, as PDF bytes."""
