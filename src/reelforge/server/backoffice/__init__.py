"""The operator's back office: a separate door from the players' (its own staff accounts,
roles and sessions; a player's token never opens it), the meters read from the ledger, and the
game and jackpot switches, each change in the audit chain."""
