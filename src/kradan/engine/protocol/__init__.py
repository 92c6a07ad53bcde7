"""The protocol servers: ``kradan uci`` (:mod:`.uci`) and ``kradan xboard`` (:mod:`.xboard`),
both built on one session (:mod:`.session`) and one read-execute loop (:mod:`.serve`)."""
