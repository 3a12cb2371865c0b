-- Issue 24 (workers on many machines): what each process's workers can
-- judge, announced at start.
ALTER TABLE workers ADD COLUMN cores INTEGER NOT NULL DEFAULT 0;
-- The languages it has toolchains for, `id version` a line.
ALTER TABLE workers ADD COLUMN languages TEXT NOT NULL DEFAULT '';
