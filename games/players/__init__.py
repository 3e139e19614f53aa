"""A player's page: their rating, their games and what else the site knows of them."""
