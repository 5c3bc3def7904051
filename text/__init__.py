"""Text handling shared by every layer: making strings storable, and (as they move here) sentence
splitting, stop words, stemming and the planted-instruction detector. Imports nothing of Bosun."""
