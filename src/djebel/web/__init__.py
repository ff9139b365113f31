"""The djebel web app: both games and the bots, played over the network (``djebel serve``)."""
