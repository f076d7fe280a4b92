-- Test-only migration step (never shipped): slower than a request's statement timeout (1.5 s), and refusing to
-- run under a request's lock timeout (1 s). The start succeeds only when migrations have their own limits.
SELECT pg_sleep(2);
DO $$
BEGIN
    IF current_setting('lock_timeout') = '1s' OR current_setting('statement_timeout') = '1500ms' THEN
        RAISE EXCEPTION 'migrations run with the request timeouts';
    END IF;
END
$$;
