-- PostgreSQL's spelling of ../0007_add_worker_languages_and_packages.sql.
ALTER TABLE workers ADD COLUMN cores BIGINT NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN languages TEXT NOT NULL DEFAULT '';
