-- Before the index: a customer with two updates in workers' hands (possible before this version when an
-- older update arrived after a newer one had been taken) keeps the claim that lasts longest; the other
-- is released and taken again in its turn.
UPDATE "telegram_updates" AS t SET "claimed_until" = NULL
 WHERE t."handled_at" IS NULL AND t."claimed_until" IS NOT NULL
   AND EXISTS (
     SELECT 1 FROM "telegram_updates" AS o
      WHERE o."bot_id" = t."bot_id" AND o."chat_key" = t."chat_key"
        AND o."handled_at" IS NULL AND o."claimed_until" IS NOT NULL
        AND (o."claimed_until", o."update_id") > (t."claimed_until", t."update_id"));--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_updates_held_idx" ON "telegram_updates" USING btree ("bot_id","chat_key") WHERE "telegram_updates"."handled_at" is null and "telegram_updates"."claimed_until" is not null;
