import { CommandRefusal } from '@alert-ingestion/alerts-domain';
import { CommandResult } from '@alert-ingestion/alerts-data';
import { BadRequestError, ConflictError, DomainError, NotFoundError } from '@alert-ingestion/http';

/** A command's refusal as the HTTP error it answers (the one place a refusal's kind becomes a status). */
export function refusalError({ kind, code, message, field }: CommandRefusal): DomainError {
  switch (kind) {
    case 'invalid':
      return new BadRequestError(code, message, field);
    case 'not_found':
      return new NotFoundError(message, code, field);
    case 'conflict':
      return new ConflictError(message, code, field);
  }
}

/** The command's answer, or its refusal thrown as its HTTP error. */
export function answered<Answer>(result: CommandResult<Answer>): Answer {
  if ('refused' in result) throw refusalError(result.refused);
  return result.answer;
}
