-- Job settings shared by every scenario of scripts/cluster-test.sh (@...@ is filled in by the script).
SET 'parallelism.default' = '2';
SET 'execution.checkpointing.interval' = '1s';
SET 'execution.checkpointing.mode' = 'EXACTLY_ONCE';
SET 'restart-strategy.type' = 'fixed-delay';
SET 'restart-strategy.fixed-delay.attempts' = '60';
SET 'restart-strategy.fixed-delay.delay' = '5s';
SET 'table.dml-sync' = 'false';
SET 'pipeline.name' = '@JOB@';
