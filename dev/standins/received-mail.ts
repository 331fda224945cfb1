/** One message as the SMTP stand-in received it. */
export interface ReceivedMail {
  id: number;
  receivedAt: string;
  /** SMTP envelope: who the client said the message was from and to (what a real relay would act on). */
  envelope: { from: string; to: string[] };
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Header lines as sent, keys lower-cased, folded lines joined. */
  headers: Record<string, string>;
}
