-- The messages the bot keeps for a cup, a challenge or a vote (bot.present.posts), one row
-- each, named by its slot (bot.store.posts.Slot), the id of what it shows (the cup's, the
-- challenge's, the vote's) and its chat (a group; a participant's private chat for his
-- challenge picture). A message id 0 is a reservation, made before the message was sent:
-- found after a restart, the bot stopped before it could store the id. Their ids were
-- columns of their own rows: they move here, and the columns go.
CREATE TABLE posts (
    slot     TEXT NOT NULL,
    key_id   BIGINT NOT NULL,
    chat_id  BIGINT NOT NULL,
    msg_id   BIGINT NOT NULL,
    PRIMARY KEY (slot, key_id, chat_id)
);
INSERT INTO posts (slot, key_id, chat_id, msg_id)
    SELECT 'cup_card', id, chat_id, card_msg_id FROM cups WHERE card_msg_id IS NOT NULL;
INSERT INTO posts (slot, key_id, chat_id, msg_id)
    SELECT 'cup_final', id, chat_id, final_msg_id FROM cups WHERE final_msg_id IS NOT NULL;
INSERT INTO posts (slot, key_id, chat_id, msg_id)
    SELECT 'challenge_card', id, chat_id, card_msg_id FROM challenges
    WHERE card_msg_id IS NOT NULL;
INSERT INTO posts (slot, key_id, chat_id, msg_id)
    SELECT 'challenge_final', id, chat_id, final_msg_id FROM challenges
    WHERE final_msg_id IS NOT NULL;
INSERT INTO posts (slot, key_id, chat_id, msg_id)
    SELECT 'challenge_seat', challenge_id, user_id, msg_id FROM challenge_players
    WHERE msg_id IS NOT NULL;
INSERT INTO posts (slot, key_id, chat_id, msg_id)
    SELECT 'vote', v.id, t.chat_id, v.msg_id FROM votes v JOIN tables t ON t.id = v.table_id
    WHERE v.msg_id IS NOT NULL;
ALTER TABLE cups DROP COLUMN card_msg_id;
ALTER TABLE cups DROP COLUMN final_msg_id;
ALTER TABLE challenges DROP COLUMN card_msg_id;
ALTER TABLE challenges DROP COLUMN final_msg_id;
ALTER TABLE challenge_players DROP COLUMN msg_id;
ALTER TABLE votes DROP COLUMN msg_id;
