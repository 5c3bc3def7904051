"""The web app: HTTP routes and the chat page over the same turns as the CLI (``bosun serve``)."""
