"""The JSON API: its routes and the models its OpenAPI description is made from."""
