// The CV: shown in the page from the bytes fetched with the session (a blob: URL, C20), and for
// those who may change the dossier, attached or replaced by dropping a PDF or choosing one.
import { useEffect, useState, type DragEvent } from "react";
import { messageOf } from "../api/client";
import { Field } from "../ui/field";
import { useAttachCv, useCvBlob, type Shown } from "./queries";

export const CV_MAX_BYTES = 10 * 1024 * 1024;

/** Why a file cannot be a CV, before sending it, or null (C5: a PDF of at most 10 MB). */
export async function refusalOf(file: File): Promise<string | null> {
  if (file.size > CV_MAX_BYTES) return `${file.name} is larger than 10 MB.`;
  const start = new TextDecoder().decode(await file.slice(0, 5).arrayBuffer());
  return start === "%PDF-" ? null : `${file.name} is not a PDF file.`;
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** A blob: URL for `blob` while the component shows it. */
function useObjectUrl(blob: Blob | undefined) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

export function CvSection({ shown, canWrite }: { shown: Shown; canWrite: boolean }) {
  const { dossier } = shown;
  const cv = useCvBlob(dossier.id, dossier.cv_url);
  const url = useObjectUrl(cv.data);
  return (
    <section className="cv" aria-labelledby="cv-heading">
      <h2 id="cv-heading">CV</h2>
      {dossier.cv_url === null && <p>No CV attached.</p>}
      {dossier.cv_url !== null && cv.isPending && <p role="status">Loading the CV…</p>}
      {cv.isError && (
        <p className="error" role="alert">
          The CV could not be shown: {messageOf(cv.error)}
        </p>
      )}
      {url && cv.data && (
        <>
          <p>
            PDF, {size(cv.data.size)}.{" "}
            <a href={url} download={`${dossier.name} CV.pdf`}>
              Download the CV
            </a>
          </p>
          <iframe className="cv-view" src={url} title={`CV of ${dossier.name}`} />
        </>
      )}
      {canWrite && <CvDrop id={dossier.id} replacing={dossier.cv_url !== null} />}
    </section>
  );
}

function CvDrop({ id, replacing }: { id: string; replacing: boolean }) {
  const attach = useAttachCv(id);
  const [over, setOver] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const send = async (file: File | undefined) => {
    setDone(null);
    attach.reset();
    if (!file) return;
    const why = await refusalOf(file);
    setRefusal(why);
    if (!why) attach.mutate(file, { onSuccess: () => setDone(`${file.name} attached.`) });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void send(event.dataTransfer.files[0]);
  };
  const error = refusal ?? (attach.isError ? messageOf(attach.error) : null);
  return (
    <div
      className={over ? "drop over" : "drop"}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <Field label={replacing ? "Replace the CV (PDF)" : "Attach a CV (PDF)"} hint="Drop a PDF here, or choose one: at most 10 MB." error={error}>
        {(control) => (
          <input
            {...control}
            type="file"
            accept="application/pdf,.pdf"
            disabled={attach.isPending}
            onChange={(event) => {
              void send(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
        )}
      </Field>
      <p role="status" className="saved">
        {attach.isPending ? "Sending the CV…" : done}
      </p>
    </div>
  );
}
