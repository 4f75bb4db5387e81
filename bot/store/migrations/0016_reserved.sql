-- Reserved: another change of this release takes number 16 (this file only keeps the list
-- numbered 1..n on its own branch; the merge replaces it).
SELECT 1;
