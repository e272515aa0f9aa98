/*
 * amo_message.h - AMOs as messages to the word's owner (amo_message.c),
 * where every PE runs the progress thread (shmpi_amo_by_message, shape.h).
 */
#ifndef SHMPI_AMO_MESSAGE_H
#define SHMPI_AMO_MESSAGE_H

#include "amo_word.h"

/* Its communicators, where shmpi_amo_by_message() (collective, init). */
void shmpi_amo_message_init(void);
void shmpi_amo_message_fini(void);
/* Completes this PE's AMOs sent without waiting (quiet). */
void shmpi_amo_message_quiet(void);

/* `op` on the word at `offset` of PE pe's segment, applied by its owner.
 * SHMPI_ANSWER_NOW: returns the old value once the owner answered.
 * SHMPI_ANSWER_AT_QUIET: returns once sent; the next quiet completes it and
 * writes the old value to *fetched, unless fetched is NULL. */
enum shmpi_answer { SHMPI_ANSWER_NOW, SHMPI_ANSWER_AT_QUIET };
uint64_t shmpi_amo_message(enum shmpi_amo_op op, enum shmpi_amo_type type, int segment,
                           size_t offset, int pe, uint64_t operand, uint64_t compare,
                           enum shmpi_answer answer, void *fetched);
/* What a wait for an AMO through MPI shows as its routine (the status page):
 * the routine's name would keep it live on every AMO's fast path. */
extern const char *const shmpi_amo_wait_name[];

#endif /* SHMPI_AMO_MESSAGE_H */
