"""A live IMAP mailbox kept in sync with the archive: the address and its TLS policy, the IMAP
session, the sync state in the collection's tables, and the sync that joins them."""
