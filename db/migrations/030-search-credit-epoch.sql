-- A search that holds its own credit (an ask, /v1, MCP; a timer run's credit is held on its run row) records the
-- allowance period the credit came from, so the sweep of searches a stopped process left running gives it back in
-- the statement that marks them failed. Rows from before stay null: their period is not known, nothing is given.
alter table searches add column if not exists credit_epoch integer;
